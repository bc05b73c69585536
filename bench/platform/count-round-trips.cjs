// Preloaded into each service (`node --require`): counts the Postgres statements and Redis commands the
// process sends, by statement text, with the time each statement took from sending to its answer (Postgres's
// work plus the round trip, and any wait behind earlier statements on the connection), and writes the counts
// to AGENTRY_ROUND_TRIPS_DIR/<name>-<pid>.json when it receives SIGWINCH. Patches the prototypes of the copies
// of `pg` and `ioredis` the service itself loads, so nothing in the service changes.
const { createRequire } = require('node:module');
const { writeFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.AGENTRY_ROUND_TRIPS_DIR;
const main = process.argv[1];
if (dir && main) {
  const counts = { pg: 0, redis: 0, statements: {}, milliseconds: {} };
  const serviceRequire = createRequire(main);
  const count = (kind, key) => {
    counts[kind] += 1;
    const label = `${kind}: ${key}`;
    counts.statements[label] = (counts.statements[label] ?? 0) + 1;
  };
  try {
    const pg = serviceRequire('pg');
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function countedQuery(config, ...rest) {
      const text = typeof config === 'string' ? config : (config?.name ?? config?.text ?? '?');
      const label = `pg: ${String(text).replace(/\s+/g, ' ').slice(0, 80)}`;
      count('pg', label.slice(4));
      const started = performance.now();
      const timed = () => {
        counts.milliseconds[label] = (counts.milliseconds[label] ?? 0) + performance.now() - started;
      };
      const callback = rest.at(-1);
      if (typeof callback === 'function') {
        rest[rest.length - 1] = function timedCallback(...results) {
          timed();
          return callback.apply(this, results);
        };
      }
      const result = query.call(this, config, ...rest);
      if (typeof callback !== 'function' && typeof result?.then === 'function') result.then(timed, timed);
      return result;
    };
  } catch {
    // The service does not use pg.
  }
  try {
    // BullMQ shares the service's ioredis, so its commands (Lua scripts included) are counted too.
    const ioredis = serviceRequire('ioredis');
    const Redis = ioredis.default ?? ioredis;
    const sendCommand = Redis.prototype.sendCommand;
    Redis.prototype.sendCommand = function countedCommand(command, ...rest) {
      count('redis', command?.name ?? '?');
      return sendCommand.call(this, command, ...rest);
    };
  } catch {
    // The service does not use ioredis.
  }
  const service = main.split('/').at(-3) ?? 'service';
  process.on('SIGWINCH', () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${service}-${process.pid}.json`), JSON.stringify(counts));
  });
}
