import { config } from 'zod';

// zod probes `new Function` to decide whether to compile its parsers; under the app's CSP
// (no 'unsafe-eval') that probe logs a CSP violation on every load. Jitless parsing never probes.
config({ jitless: true });
