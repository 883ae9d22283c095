print("fallback-bench")
