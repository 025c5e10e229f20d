import type { ProvidersService } from './service.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { providerOperations } from '../../contract/settings.js';
import { testSearch } from './search-test.js';

/** ext: model providers, routing and the web search backend. Secrets go in, never out (`has_api_key`). */
export function settingsRoutes({ providers }: { providers: ProvidersService }) {
  const r = createRouter();
  serveOperations(r, providerOperations, {
    getProviderSettings: () => providers.view(),
    updateProviderSettings: ({ body }) => providers.update(body),
    testProvider: ({ body }) => providers.test(body),
    // Ends with the request: a person who leaves Settings stops the test search.
    testSearch: ({ body }, c) => testSearch(body, providers.search(), c.req.raw.signal),
  });
  return r;
}
