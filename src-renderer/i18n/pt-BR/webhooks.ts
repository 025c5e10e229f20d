import type { Catalog } from '../catalog';

export const webhooks: Catalog['webhooks'] = {};
