print("compression-bench")
