print("fallback-site")
