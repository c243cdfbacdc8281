"""What Umtali keeps on disk for a player, and the one door every such file passes.

This package will hold the saved games, their locks and the profile; for now it holds
only the file door (:mod:`~umtali.store.door`, with the kinds of file it lets through
and the locks it takes), through which every file opened for a player is read or
written: regular files only, read up to a size limit, never through a link where that
matters, never overwriting what the program did not create, and every refusal said in
one line that names the file.  It uses nothing but the engine's error base and the
standard library, so every layer above the engine (the bots' match records among
them) can pass its files through it.
"""
