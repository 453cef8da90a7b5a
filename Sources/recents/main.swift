print("recents: not yet wired")
