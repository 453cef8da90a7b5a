print("recents-bench: not yet written")
