// A classic script, so it runs before any of the app's modules (those are deferred). zod keeps its
// settings on globalThis.__zod_globalConfig and reads `jitless` when each object schema is built:
// set here first, no schema of any chunk probes `new Function`, which the app's CSP (no
// 'unsafe-eval') reports as a violation in the console. zod-jitless.ts sets it again for builds
// without this file.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
