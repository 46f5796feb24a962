#!/usr/bin/python3
"""Runs a program as on a kernel without Landlock: a seccomp filter makes the three Landlock
calls fail with ENOSYS (what such a kernel answers), then execs the program.

Usage: without-landlock.py PROGRAM [ARGUMENTS...]"""
import ctypes
import os
import struct
import sys

SYS_LANDLOCK = (444, 445, 446)  # create_ruleset, add_rule, restrict_self on x86_64
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
RET_ALLOW, RET_ERRNO, ENOSYS = 0x7FFF0000, 0x00050000, 38
LD_W_ABS, JEQ_K, RET_K = 0x20, 0x15, 0x06


def instruction(code, jt, jf, k):
    return struct.pack("HBBI", code, jt, jf, k)


program = [instruction(LD_W_ABS, 0, 0, 0)]  # seccomp_data.nr
for number in SYS_LANDLOCK:
    program.append(instruction(JEQ_K, 0, 1, number))
    program.append(instruction(RET_K, 0, 0, RET_ERRNO | ENOSYS))
program.append(instruction(RET_K, 0, 0, RET_ALLOW))
code = b"".join(program)
buffer = ctypes.create_string_buffer(code)


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


libc = ctypes.CDLL(None, use_errno=True)
fprog = SockFprog(len(program), ctypes.cast(buffer, ctypes.c_void_p))
if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
        libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
    sys.exit(f"without-landlock: cannot install the filter: {os.strerror(ctypes.get_errno())}")
os.execv(sys.argv[1], sys.argv[1:])
