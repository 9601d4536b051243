{
  "targets": [
    {
      "target_name": "pages",
      "sources": ["pages.c"],
      "cflags": ["-O2", "-Wall"]
    }
  ]
}
