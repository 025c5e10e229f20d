import type { Catalog } from '../catalog';

export const schedules: Catalog['schedules'] = {};
