// The SOFA peer as a process: `node bench/support/sofa-peer-server.ts`.
//
// Reads Packline's configuration from the environment (DATA_DIR or DATABASE_URL of a running
// Packline, PUBLIC_BASE_URL, RATE_LIMIT_PER_MINUTE), opens the same core on the same database,
// and serves the SOFA peer on HOST:PORT (PORT=0 picks a free port). PEER_LIMITS=0 leaves the rate
// limit and the quota out. Prints `SOFA_PEER_LISTENING <port>` once listening; SIGTERM stops it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { coreOptions, loadConfig, openCore } from '../../core/index.ts';
import { ApiLimits } from '../../facades/rest/limits.ts';
import { Contexts } from '../../schema/index.ts';
import { createSofaPeer } from './sofa-peer.ts';

const config = loadConfig(process.env);
const core = await openCore(coreOptions(config));
const contexts = new Contexts(core, config.internalApiToken);
const limits = process.env.PEER_LIMITS === '0' ? undefined : new ApiLimits({ perMinute: config.rateLimitPerMinute, usage: core.usage });
const yoga = createSofaPeer({ contexts, ...(limits ? { limits } : {}) });
// The same keep-alive timeout as Packline's server.
const server = createServer({ keepAliveTimeout: 65_000 }, yoga);

server.listen(config.port, config.host, () => {
  process.stdout.write(`SOFA_PEER_LISTENING ${(server.address() as AddressInfo).port}\n`);
});

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  await core.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
