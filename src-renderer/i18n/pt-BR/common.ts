import type { Catalog } from '../catalog';

export const common: Catalog['common'] = {
  loading: 'Carregando…',
  save: 'Salvar',
  saved: 'Salvo',
  cancel: 'Cancelar',
  close: 'Fechar',
  delete: 'Excluir',
  remove: 'Remover',
  edit: 'Editar',
  retry: 'Tentar de novo',
  ok: 'OK',
  none: '–',
};
