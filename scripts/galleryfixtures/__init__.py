"""The test-data generators of imagegallery, as a package: scripts/make-fixtures.py writes the
committed fixtures (sample images and valid, tolerant and invalid galleries, galleryfixtures.fixtures)
and scripts/make-hostile-corpus.py the hostile corpus (galleryfixtures.hostile), both through the
one ZIP writer of zipwriting.py, which packs every record with struct so that any field can be set
to any value, and the checksums, compressed streams and PNG chunks of compression.py and png.py.
Output is deterministic: seeded randomness, fixed times."""
