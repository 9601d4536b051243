#!/usr/bin/env node
// Entry point of the `svc` command: runs the compiled CLI (built by `npm install` via `prepare`).
import '../dist/cli/main.js';
