"""Real servers for tests and benchmarks: server-everything from npm, a replay server, fault servers."""
