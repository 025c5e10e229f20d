import { config } from 'zod';

// zod probes `new Function` to decide whether to compile its parsers; under the app's CSP
// (no 'unsafe-eval') that probe logs a CSP violation on every load. Jitless parsing never probes.
// public/zod-jitless.js sets this before any module runs (a shared chunk may build schemas before
// this module's turn); this keeps it set wherever that script is absent (tests importing modules).
config({ jitless: true });
