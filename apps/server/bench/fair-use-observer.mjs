// The fair-use bench's observer (fair-use.bench.ts), in a process of its own: the bench's own
// event loop, busy sending a dozen 50 MB bodies, delayed the answers it timed by up to two
// seconds that the server had not taken. Reads a small client's bundle in a loop as another user
// (argv: server URL, that user's token, the bundle's path, the readiness path) and asks for
// readiness every 100 ms, until the parent sends 'stop'; then sends back every call's status and
// time.
const [url, token, bundlePath, readyPath] = process.argv.slice(2);
let isStopped = false;
process.on('message', () => {
  isStopped = true;
});

async function timed(path, headers) {
  const startedAt = performance.now();
  const response = await fetch(`${url}${path}`, { headers });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - startedAt };
}

async function loop(probe, everyMs) {
  const answers = [];
  while (!isStopped) {
    answers.push(await probe());
    if (everyMs > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return answers;
}

const [reads, readies] = await Promise.all([
  loop(() => timed(bundlePath, { authorization: `Bearer ${token}` }), 0),
  loop(() => timed(readyPath, {}), 100),
]);
process.send({ reads, readies }, () => process.exit(0));
