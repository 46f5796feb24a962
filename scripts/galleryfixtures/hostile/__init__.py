"""The hostile corpus (scripts/make-hostile-corpus.py): corpus.py runs the families, output.py keeps
the files and their expected outcomes, gallery.py and images.py make what the families change."""
