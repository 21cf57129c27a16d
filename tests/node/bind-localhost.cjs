// Preload (`node --require ./bind-localhost.cjs ...`) that keeps a test server off the network.
// server-everything calls `app.listen(PORT)`, which binds every interface; this forces the host of
// every TCP `listen` to 127.0.0.1 and, once bound, prints the real address on stderr so a test can
// start the server with PORT=0 and learn its port without a race:  MCP_TEST_LISTENING 127.0.0.1:PORT
"use strict";
const net = require("node:net");

const HOST = "127.0.0.1";
const originalListen = net.Server.prototype.listen;

function forceHost(args) {
  const first = args[0];
  if (first !== null && typeof first === "object") {
    // listen(options[, cb]); a handle or a unix socket path is left alone.
    if (first.path !== undefined || first._handle !== undefined || first.fd !== undefined) return args;
    return [{ ...first, host: HOST }, ...args.slice(1)];
  }
  if (typeof first === "string" && !/^\d+$/.test(first)) return args; // unix socket path
  if (typeof first === "function" || first === undefined) {
    return [0, HOST, ...args]; // listen() or listen(cb)
  }
  // listen(port[, host][, backlog][, cb])
  const rest = args.slice(1);
  if (typeof rest[0] === "string" || rest[0] === undefined || rest[0] === null) rest.shift();
  return [first, HOST, ...rest];
}

net.Server.prototype.listen = function listen(...args) {
  this.once("listening", () => {
    const addr = this.address();
    if (addr && typeof addr === "object") {
      process.stderr.write(`MCP_TEST_LISTENING ${addr.address}:${addr.port}\n`);
    }
  });
  return originalListen.apply(this, forceHost(args));
};
