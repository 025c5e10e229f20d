import type { Catalog } from '../catalog';

export const developer: Catalog['developer'] = {
  key: 'Chave',
  keyHelp: 'Envie <code>Authorization: Bearer $AGENT_DESK_KEY</code>. Crie uma chave em <to>Configurações → Chaves de API</to> e exporte-a como <code>AGENT_DESK_KEY</code>.',
  reference: 'Referência',
  docs: 'Documentação da API (/api/docs)',
  openapi: 'Documento OpenAPI',
  examples: {
    list: 'Listar os agentes',
    stream: 'Rodar um agente e receber a resposta aos poucos (SSE)',
    wait: 'Rodar e esperar a resposta completa',
    read: 'Ler uma resposta guardada (o id dela está nas respostas acima)',
    upload: 'Enviar e processar um arquivo',
    memory: 'Salvar uma memória',
  },
};
