import type { Catalog } from '../catalog';

export const sessions: Catalog['sessions'] = {};
