import type { Catalog } from '../catalog';

export const searchModels: Catalog['searchModels'] = {
  tab: 'Modelos de busca',
  intro: 'Antes de responder, os agentes buscam nos seus arquivos e memórias. Um modelo de busca entende o sentido do texto, então uma pergunta encontra trechos escritos com outras palavras.',
  current: 'Em uso',
  builtin: 'Integrado (funciona offline)',
  englishBest: 'O modelo de busca integrado funciona offline, mas entende melhor o inglês. Para português e outros idiomas, baixe um modelo multilíngue abaixo e passe a usá-lo.',
  status: {
    ready: 'Pronto: todos os trechos e memórias podem ser encontrados pelo sentido.',
    embedding: 'Lendo seus arquivos e memórias com o novo modelo: {{embedded}} de {{total}}. Até terminar, a busca encontra só palavras iguais.',
    error: 'O modelo de busca falhou; até ele voltar a funcionar, a busca encontra só palavras iguais.',
  },
  progress: 'Andamento da leitura com o novo modelo',
  models: 'Modelos multilíngues',
  sizeLicence: '{{size}} · licença {{license}}',
  download: 'Baixar',
  downloading: 'Baixando: {{percent}}',
  use: 'Usar na busca',
  inUse: 'Em uso',
  useBuiltin: 'Usar o modelo integrado',
  rerankHeading: 'Ordem mais precisa (opcional)',
  rerankIntro: 'Um reordenador relê os 20 melhores resultados junto com a pergunta e os coloca em uma ordem melhor. É mais lento e fica desligado até você ativá-lo.',
  rerankOn: 'Reordenar os melhores resultados com o {{name}}',
  rerankNeedsDownload: 'Baixe o modelo primeiro para poder ativá-lo.',
  what: 'as configurações dos modelos de busca',
};
