{
  "targets": [
    {
      "target_name": "pages",
      "sources": ["pages.c", "heap.cc"],
      "cflags": ["-O2", "-Wall"]
    }
  ]
}
