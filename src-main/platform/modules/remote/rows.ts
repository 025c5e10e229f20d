import { z } from 'zod';
import { AgentCreate, AgentType } from '../../contract/agents.js';
import { cleanQuestions } from '../agents/stored.js';

/**
 * What the remote platform answers, parsed before anything is cached or run: the remote is
 * outside, hosted or another Agent Desk, and may be broken or hostile. Only the fields named here
 * are read (the hosted platform sends many more). An agent is held to the API's own schemas:
 * one without a usable id, title or type is left out; its texts are cut to the API's limits,
 * and of its questions only those the API would accept are kept.
 */
const api = AgentCreate.shape;
/** A field that may be missing or of any type (then `fallback`); in zod 4 only an optional input may be absent. */
const loose = () => z.unknown().optional();
const textOr = <T>(max: number, fallback: T) => loose().transform((v) => (typeof v === 'string' ? v.slice(0, max) : fallback));

export const RemoteAgentRow = z.object({
  id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  title: z
    .string()
    .trim()
    .min(1)
    .transform((s) => s.slice(0, 255)),
  slug: textOr(200, ''),
  type: AgentType,
  description: textOr(2000, null),
  long_description: textOr(20_000, null),
  visibility: api.visibility.unwrap().catch('public'),
  active: loose().transform((v) => (v === 0 ? 0 : 1)),
  questions: loose().transform((v) => cleanQuestions(v).value),
  instructions: textOr(100_000, ''),
});
export type RemoteAgent = z.infer<typeof RemoteAgentRow>;

/** A page of `GET /api/agents` (shape B): the items are parsed one by one (RemoteAgentRow). */
export const RemoteAgentPage = z.object({
  data: z.array(z.unknown()).max(1000),
  last_page: z.number().int().min(0).max(1_000_000),
  total: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export type RemoteAgentPage = z.infer<typeof RemoteAgentPage>;

/** One event of a remote execution's stream: what the runner reads of it. */
export const RemoteEvent = z.object({
  status: z.string().max(40),
  output: z.string().nullish(),
  error: z.union([z.string().max(2000), z.looseObject({ message: z.string().max(2000).optional() })]).nullish(),
});
export type RemoteEvent = z.infer<typeof RemoteEvent>;
