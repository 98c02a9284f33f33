// Starts the real @20minutes/s3rver on loopback for lakeqa's integration tests, on a free port, with
// the buckets named on the command line, and prints "PORT <n>" once it accepts connections.
// Usage: node s3rver.js <s3rver package dir> <data dir> <bucket>...
const [, , pkgDir, dataDir, ...buckets] = process.argv;
const S3rver = require(pkgDir);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: dataDir,
  configureBuckets: buckets.map((name) => ({ name })),
});
server.run().then(
  (addr) => {
    process.stdout.write(`PORT ${addr.port}\n`);
  },
  (err) => {
    process.stderr.write(`s3rver failed: ${err}\n`);
    process.exit(1);
  },
);
// The parent closes our stdin when it is done (or dies): exit then, so no server outlives a test.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
