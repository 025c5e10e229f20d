import type { Catalog } from '../catalog';

export const components: Catalog['components'] = {};
