// Types of bench/helpers/request-mix.mjs.
export declare function mixedRequests(
  req: (path: string, method?: string, body?: unknown) => Promise<{ status: number; json: any }>,
  total: number,
): Promise<{ errors: number; executions: number }>;
