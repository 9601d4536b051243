// Preloaded with `node --import` into a process that must make no outbound call (and, through the
// inherited execArgv, into its worker threads; plain JavaScript so it loads there before any
// TypeScript loader): every attempt to open a TCP or TLS connection, send or connect a UDP socket,
// or resolve a host name is written to stderr as `OUTBOUND <what>` and fails as a refused
// connection would (code ECONNREFUSED). Not affected:
// accepting connections (the server's own port), local IPC sockets (a `path`, e.g. tsx's), and
// "resolving" an IP literal (net does that when binding to one; it never leaves the process).
import dgram from 'node:dgram';
import dns from 'node:dns';
import { writeSync } from 'node:fs';
import net from 'node:net';

function refuse(what, args) {
  let detail;
  try {
    detail = JSON.stringify(args.filter((a) => typeof a !== 'function'));
  } catch {
    detail = String(args[0]);
  }
  writeSync(2, `OUTBOUND ${what} ${detail}\n`);
  throw Object.assign(new Error(`outbound call attempted: ${what} ${detail}`), { code: 'ECONNREFUSED' });
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if ((first && typeof first === 'object' && typeof first.path === 'string') || (typeof first === 'string' && !/^\d+$/.test(first)))
    return connect.apply(this, args);
  return refuse('tcp connect', args);
};
dgram.Socket.prototype.send = function send(...args) {
  return refuse('udp send', args.slice(1));
};
dgram.Socket.prototype.connect = function connect(...args) {
  return refuse('udp connect', args);
};
for (const name of ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny']) {
  for (const api of [dns, dns.promises]) {
    const original = api[name];
    api[name] = function (...args) {
      if (name === 'lookup' && net.isIP(String(args[0]))) return original.apply(this, args);
      if (api === dns.promises) return new Promise(() => refuse(`dns ${name}`, args));
      return refuse(`dns ${name}`, args);
    };
  }
}
