"""The ZIP writer of both generators: records packed with struct, not zipfile, so that every
field of every local header, data descriptor, central record and end record (classic and ZIP64)
can be set, wrong ones included. A canonical entry (format section 4) is `E(name, data, method)`
with no keywords; the keywords of E and build() make everything else."""

import bz2
import io
import struct
import zlib

from .compression import crc32, crc_zeros, deflate, deflate_zeros

MIMETYPE = b"application/vnd.imagegallery+zip"

LOCAL_SIG, CENTRAL_SIG, EOCD_SIG = 0x04034B50, 0x02014B50, 0x06054B50
Z64REC_SIG, Z64LOC_SIG, DD_SIG = 0x06064B50, 0x07064B50, 0x08074B50
UTF8 = 0x0800                 # general-purpose flag bit 11: names are UTF-8
REG = 0o100644 << 16          # 0x81A40000
DIRMODE = (0o040755 << 16) | 0x10
# build()'s default time: 2026-11-22 10:42:16, the hostile corpus's `modified` (T_MODIFIED)
DEFAULT_DT = (0x5548, 0x5D76)

MASK = {"H": 0xFFFF, "I": 0xFFFFFFFF, "Q": (1 << 64) - 1}
SIZE = {"H": 2, "I": 4, "Q": 8}


class Record:
    """The layout of one ZIP record: (field, struct code) pairs, little-endian."""

    def __init__(self, *fields):
        self.fields = fields
        self.struct = struct.Struct("<" + "".join(code for _, code in fields))

    def pack(self, vals):
        """Missing fields are 0; a value too wide for its field keeps its low bytes."""
        return self.struct.pack(*(vals.get(name, 0) & MASK[code] for name, code in self.fields))


LOCAL = Record(("sig", "I"), ("ver", "H"), ("flags", "H"), ("method", "H"), ("time", "H"), ("date", "H"),
               ("crc", "I"), ("csize", "I"), ("usize", "I"), ("nlen", "H"), ("xlen", "H"))
CENTRAL = Record(("sig", "I"), ("made", "H"), ("ver", "H"), ("flags", "H"), ("method", "H"), ("time", "H"),
                 ("date", "H"), ("crc", "I"), ("csize", "I"), ("usize", "I"), ("nlen", "H"), ("xlen", "H"),
                 ("clen", "H"), ("disk", "H"), ("iattr", "H"), ("eattr", "I"), ("offset", "I"))
EOCD = Record(("sig", "I"), ("disk", "H"), ("cddisk", "H"), ("n_disk", "H"), ("n_total", "H"),
              ("cd_size", "I"), ("cd_offset", "I"), ("clen", "H"))
Z64REC = Record(("sig", "I"), ("recsize", "Q"), ("made", "H"), ("ver", "H"), ("disk", "I"), ("cddisk", "I"),
                ("n_disk", "Q"), ("n_total", "Q"), ("cd_size", "Q"), ("cd_offset", "Q"))
Z64LOC = Record(("sig", "I"), ("disk", "I"), ("z64_offset", "Q"), ("disks", "I"))


# Single records for files laid out by hand; fields not given are those of a stored entry dated
# 1980-01-01 00:00 (DOS date 0x21) with a UTF-8 name.

def local_header(**v):
    return LOCAL.pack(dict(dict(sig=LOCAL_SIG, ver=20, flags=UTF8, date=0x21), **v))


def central_header(**v):
    return CENTRAL.pack(dict(dict(sig=CENTRAL_SIG, made=0x0314, ver=20, flags=UTF8, date=0x21, eattr=REG), **v))


def end_record(**v):
    return EOCD.pack(dict(dict(sig=EOCD_SIG), **v))


def zip64_end_record(**v):
    return Z64REC.pack(dict(dict(sig=Z64REC_SIG, recsize=44, made=0x032D, ver=45), **v))


def zip64_locator(**v):
    return Z64LOC.pack(dict(dict(sig=Z64LOC_SIG, disks=1), **v))


def data_descriptor(crc, csize, usize, sig=True, wide=False):
    w = "Q" if wide else "I"
    return (struct.pack("<I", DD_SIG) if sig else b"") + struct.pack("<I" + w + w, crc, csize, usize)


def dos_datetime(rfc):
    """Section 4.8 for the UTC 'Z' date-times written canonically: DOS (time, date), seconds
    rounded down to even, 1980-01-01 00:00 before 1980. Fields are read at their fixed places
    (an offset is ignored) and an impossible date raises."""
    y, mo, d = int(rfc[0:4]), int(rfc[5:7]), int(rfc[8:10])
    h, mi, s = int(rfc[11:13]), int(rfc[14:16]), int(rfc[17:19])
    if y < 1980:
        return 0, 0x21
    return (h << 11) | (mi << 5) | (s // 2), ((y - 1980) << 9) | (mo << 5) | d


class Out:
    """The bytes being written and, if asked, a map of them: (start, size, record, entry, field)."""

    def __init__(self, fmap=True):
        self.b = bytearray()
        self.fmap = [] if fmap else None

    def rec(self, record, vals, rec, ent):
        if self.fmap is not None:
            pos = len(self.b)
            for name, code in record.fields:
                self.fmap.append((pos, SIZE[code], rec, ent, name))
                pos += SIZE[code]
        self.b += record.pack(vals)

    def raw(self, data, rec, ent, field):
        if data:
            if self.fmap is not None:
                self.fmap.append((len(self.b), len(data), rec, ent, field))
            self.b += data


class E:
    """One ZIP entry.

    kw: payload (stored bytes as written; by default the data deflated for method 8, bzip2 for
    method 12), level, strategy, dd (data descriptor options: sig, wide, zero, crc, csize, usize),
    z64local, z64local_keep, z64central (list of 'usize','csize','offset'), z64central_keep,
    z64l_usize, z64l_csize, z64c_vals, lextra, cextra, extra (both), comment, lname, cname,
    pre/post (bytes before/after the entry), crc_real/usize_real (the CRC and size the headers
    declare for a payload given without its data), cd_only (listed in the central directory
    alone: no local header or data is written, so c_offset gives where it points), and header
    field overrides: h_<field> (both headers), l_<field> (local), c_<field> (central)."""

    def __init__(self, name, data=b"", method=0, **kw):
        self.name = name.encode("utf-8") if isinstance(name, str) else bytes(name)
        self.data = data
        self.method = method
        if "payload" in kw:
            self.payload = kw.pop("payload")
        elif method == 8:
            self.payload = deflate(data, kw.pop("level", 6), kw.pop("strategy", zlib.Z_DEFAULT_STRATEGY))
        elif method == 12:
            self.payload = bz2.compress(data, 9)
        else:
            self.payload = data
        self.kw = kw

    def ov(self, vals, prefix):
        for k, v in self.kw.items():
            if k.startswith("h_"):
                vals[k[2:]] = v
        for k, v in self.kw.items():
            if k.startswith(prefix):
                vals[k[len(prefix):]] = v


def same_entry(e, **kw):
    """Entry E again with the keywords KW (header overrides, extras, comments, a data descriptor)
    instead of its own: its name, data and stored bytes as they are, so nothing is compressed again."""
    return E(e.name, e.data, e.method, payload=e.payload, **kw)


def with_descriptors(entries, **dd):
    """ENTRIES with a data descriptor (options DD, see E) on every one but the first, mimetype,
    which may not have one (format section 4.4)."""
    return entries[:1] + [same_entry(e, dd=dict(dd)) for e in entries[1:]]


def build(entries, dt=DEFAULT_DT, prefix=b"", prefix_in_offsets=True, cd_order=None,
          cd_raw=b"", gap_before_cd=b"", z64=None, eocd=None, comment=b"", trailing=b"", fmap=False):
    """The archive of `entries`: their local records in order, then the central directory
    (cd_order: indices into entries, default all in order) and cd_raw, then with z64 (a dict:
    "rec"/"loc" field overrides, "sentinels" for 0xFFFF/0xFFFFFFFF in the classic record) the
    ZIP64 end record and locator, then the end record (eocd: field overrides) and comment.
    dt is the DOS (time, date) of every entry. With fmap, returns (bytes, map) (see Out)."""
    o = Out(fmap)
    o.raw(prefix, "prefix", None, "data")
    base = 0 if prefix_in_offsets else len(prefix)
    offs = [write_local_entry(o, e, dt, base) for e in entries]
    o.raw(gap_before_cd, "gap", None, "data")
    cd_start = len(o.b)
    order = list(range(len(entries))) if cd_order is None else cd_order
    for i in order:
        write_central_record(o, entries[i], offs[i], dt)
    o.raw(cd_raw, "central", None, "raw")
    write_end_records(o, len(order), cd_start, base, z64, eocd, comment)
    o.raw(trailing, "trailing", None, "data")
    if fmap:
        return bytes(o.b), o.fmap
    return bytes(o.b)


def declared_sizes(e):
    """The CRC-32, uncompressed and compressed sizes the headers of entry E declare."""
    k = e.kw
    crc = crc32(e.data) if "crc_real" not in k else k["crc_real"]
    usize = len(e.data) if "usize_real" not in k else k["usize_real"]
    return crc, usize, len(e.payload)


def write_local_entry(o, e, dt, base):
    """Entry E's local header, data and data descriptor (and the bytes around them); where its
    local header starts (counted from BASE), or None for an entry only the central directory lists."""
    k = e.kw
    if k.get("cd_only"):
        return None
    en = e.name.decode("utf-8", "replace")
    o.raw(k.get("pre", b""), "gap", en, "data")
    offset = len(o.b) - base
    dd = k.get("dd")
    crc, usize, csize = declared_sizes(e)
    lv = dict(sig=LOCAL_SIG, ver=20, flags=UTF8, method=e.method, time=dt[0], date=dt[1],
              crc=crc, csize=csize, usize=usize)
    zero = dd is not None and dd.get("zero", True)
    if dd is not None:
        lv["flags"] |= 8
        if zero:
            lv["crc"] = lv["csize"] = lv["usize"] = 0
    lextra = b""
    if k.get("z64local"):
        u, c = (0, 0) if zero else (usize, csize)
        lextra += struct.pack("<HHQQ", 1, 16, k.get("z64l_usize", u), k.get("z64l_csize", c))
        lv["ver"] = 45
        if not k.get("z64local_keep"):
            lv["csize"] = lv["usize"] = 0xFFFFFFFF
    lextra += k.get("extra", b"") + k.get("lextra", b"")
    lname = k.get("lname", e.name)
    e.ov(lv, "l_")
    set_lengths(lv, k, "l", lname, lextra)
    o.rec(LOCAL, lv, "local", en)
    o.raw(lname, "local", en, "name")
    o.raw(lextra, "local", en, "extra")
    o.raw(e.payload, "data", en, "data")
    if dd is not None:
        o.raw(data_descriptor(dd.get("crc", crc), dd.get("csize", csize), dd.get("usize", usize),
                              dd.get("sig", True), dd.get("wide")), "dd", en, "dd")
    o.raw(k.get("post", b""), "gap", en, "data")
    return offset


def set_lengths(values, k, side, name, extra):
    """A record's name and extra-field lengths from what it holds, unless a case sets them to
    lie: on this side alone (SIDE_nlen, SIDE_xlen, already applied) or on both (h_nlen, h_xlen)."""
    if f"{side}_nlen" not in k and "h_nlen" not in k:
        values["nlen"] = len(name)
    if f"{side}_xlen" not in k and "h_xlen" not in k:
        values["xlen"] = len(extra)


def write_central_record(o, e, off, dt):
    """Entry E's central directory record, pointing at OFF."""
    k = e.kw
    en = e.name.decode("utf-8", "replace")
    dd = k.get("dd")
    crc, usize, csize = declared_sizes(e)
    cv = dict(sig=CENTRAL_SIG, made=0x0314, ver=20, flags=UTF8 | (8 if dd is not None else 0),
              method=e.method, time=dt[0], date=dt[1], crc=crc, csize=csize, usize=usize,
              disk=0, iattr=0, eattr=REG, offset=off)
    if k.get("z64local"):
        cv["ver"] = 45
    cextra = b""
    z = k.get("z64central")
    if z:
        vals = {"usize": usize, "csize": csize, "offset": off}
        vals.update(k.get("z64c_vals", {}))
        fields = [f for f in ("usize", "csize", "offset") if f in z]
        cextra += struct.pack("<HH", 1, 8 * len(fields)) + b"".join(struct.pack("<Q", vals[f]) for f in fields)
        cv["ver"] = 45
        cv["made"] = 0x032D
        if not k.get("z64central_keep"):
            for f in fields:
                cv[f] = 0xFFFFFFFF
    cextra += k.get("extra", b"") + k.get("cextra", b"")
    comment_e = k.get("comment", b"")
    cname = k.get("cname", e.name)
    e.ov(cv, "c_")
    set_lengths(cv, k, "c", cname, cextra)
    if "c_clen" not in k:
        cv["clen"] = len(comment_e)
    o.rec(CENTRAL, cv, "central", en)
    o.raw(cname, "central", en, "name")
    o.raw(cextra, "central", en, "extra")
    o.raw(comment_e, "central", en, "comment")


def write_end_records(o, n, cd_start, base, z64, eocd, comment):
    """The ZIP64 end record and locator (with z64), then the end record, for a central directory
    of N records from CD_START to here."""
    cd_size = len(o.b) - cd_start
    cd_off = cd_start - base
    ev = dict(sig=EOCD_SIG, disk=0, cddisk=0, n_disk=min(n, 0xFFFF), n_total=min(n, 0xFFFF),
              cd_size=cd_size, cd_offset=cd_off, clen=len(comment))
    if z64 is not None:
        zr = dict(sig=Z64REC_SIG, recsize=44, made=0x032D, ver=45, disk=0, cddisk=0, n_disk=n,
                  n_total=n, cd_size=cd_size, cd_offset=cd_off)
        zr.update(z64.get("rec", {}))
        zoff = len(o.b) - base
        o.rec(Z64REC, zr, "z64rec", None)
        o.raw(z64.get("rec_extra", b""), "z64rec", None, "extra")
        zl = dict(sig=Z64LOC_SIG, disk=0, z64_offset=zoff, disks=1)
        zl.update(z64.get("loc", {}))
        o.rec(Z64LOC, zl, "z64loc", None)
        if z64.get("sentinels"):
            ev.update(n_disk=0xFFFF, n_total=0xFFFF, cd_size=0xFFFFFFFF, cd_offset=0xFFFFFFFF)
    ev.update(eocd or {})
    o.rec(EOCD, ev, "eocd", None)
    o.raw(comment, "eocd", None, "comment")


def locals_of(entries, dt=DEFAULT_DT):
    """The local headers, data and data descriptors of `entries` as build() lays them out, with no
    central directory: what a streaming reader walks, to hide in or before another archive."""
    return build(entries, dt, cd_order=[])[:-EOCD.struct.size]


def fifield_overlap(n, kernel_size):
    """A non-recursive zip bomb (D. Fifield's overlapping construction): entry i's deflate
    stream quotes entry i+1's local header in a stored block, then shares its data.
    Returns (local part, central directory, entry count)."""
    kernel = deflate_zeros(kernel_size)
    names = [f"bomb/{i:04d}".encode() for i in range(n)]
    # build from the last entry backwards: each entry's payload = quote(next header) + next payload
    payloads = [None] * n
    crcs = [None] * n
    usizes = [None] * n
    payloads[n - 1] = kernel
    crcs[n - 1] = crc_zeros(kernel_size)
    usizes[n - 1] = kernel_size
    headers = [None] * n

    def lh(i):
        return local_header(method=8, crc=crcs[i], csize=len(payloads[i]), usize=usizes[i],
                            nlen=len(names[i])) + names[i]
    headers[n - 1] = lh(n - 1)
    for i in range(n - 2, -1, -1):
        h = headers[i + 1]
        quote = struct.pack("<BHH", 0, len(h), len(h) ^ 0xFFFF) + h
        payloads[i] = quote + payloads[i + 1]
        usizes[i] = len(h) + usizes[i + 1]
        crcs[i] = crc_zeros(kernel_size, prefix=b"".join(headers[i + 1:]))
        headers[i] = lh(i)
    body = headers[0] + payloads[0]
    offsets = []
    pos = 0
    for i in range(n):
        offsets.append(pos)
        pos += len(headers[i]) + 5
    cd = b""
    for i in range(n):
        cd += central_header(method=8, crc=crcs[i], csize=len(payloads[i]), usize=usizes[i],
                             nlen=len(names[i]), offset=offsets[i]) + names[i]
    return body, cd, n


# extra fields (APPNOTE 4.5, 4.6) that other writers add

def ext_ut(mtime=1795000000, atime=None):
    """Info-ZIP extended timestamp (0x5455): the modification time, and the access time if given."""
    times = [mtime] if atime is None else [mtime, atime]
    return (struct.pack("<HHB", 0x5455, 1 + 4 * len(times), (1 << len(times)) - 1)
            + b"".join(struct.pack("<I", t) for t in times))


def ext_ux(uid=1000, gid=1000):
    """Info-ZIP new Unix extra (0x7875): uid and gid."""
    return struct.pack("<HHBBIBI", 0x7875, 11, 1, 4, uid, 4, gid)


def ext_unknown(hid=0xCAFE, data=b"hostile-corpus"):
    return struct.pack("<HH", hid, len(data)) + data


class UnseekableSink(io.RawIOBase):
    """A write-only stream that can tell() but not seek(): Python's zipfile, the other writer
    of section 9.1, then streams and writes a data descriptor after every entry."""

    def __init__(self):
        super().__init__()
        self.buf = bytearray()

    def writable(self):
        return True

    def write(self, b):
        self.buf += bytes(b)
        return len(b)

    def tell(self):
        return len(self.buf)

    def seekable(self):
        return False

    def seek(self, *args):
        raise io.UnsupportedOperation("not seekable")
