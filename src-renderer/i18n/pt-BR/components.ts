import type { Catalog } from '../catalog';

export const components: Catalog['components'] = {
  copy: {
    label: 'Copiar',
    copied: 'Copiado.',
    failed: 'Não foi possível copiar: a área de transferência não está disponível aqui. Selecione o texto.',
  },
  error: {
    notAvailableOf: '{{what}}: indisponível',
    notAvailable: 'Indisponível',
    notOffered: 'Esta versão da plataforma ainda não oferece isso.',
    details: 'Detalhes',
  },
  drop: {
    attach: 'Solte para anexar à sua mensagem',
    upload: 'Solte para enviar',
  },
  models: {
    loading: 'Carregando modelos…',
    none: 'Nenhum modelo disponível: adicione um provedor em Configurações',
    choose: 'Escolha um modelo',
    notServed: '{{model}} (indisponível agora)',
    isDefault: '{{model}} (padrão)',
  },
  image: {
    blockedTitle: 'Imagens externas não são carregadas',
    blocked: '[imagem não carregada]',
    blockedWithAlt: '[imagem não carregada: {{alt}}]',
  },
  link: {
    title: 'Abrir este link?',
    open: 'Abrir link',
    outside: 'Ele abre fora do Agent Desk:',
  },
  markdown: {
    close: 'Fechar',
    copied: 'Copiado',
    copyCode: 'Copiar código',
    copyLink: 'Copiar link',
    copyTable: 'Copiar tabela',
    copyTableAsCsv: 'Copiar tabela como CSV',
    copyTableAsMarkdown: 'Copiar tabela como Markdown',
    copyTableAsTsv: 'Copiar tabela como TSV',
    imageNotAvailable: 'Imagem indisponível',
    openLink: 'Abrir link',
    openExternalLink: 'Abrir link externo?',
    externalLinkWarning: 'Você está prestes a visitar um site externo.',
    viewFullscreen: 'Ver em tela cheia',
    exitFullscreen: 'Sair da tela cheia',
  },
  toast: {
    dismiss: 'Dispensar',
  },
  citation: {
    source: 'Fonte {{n}}: {{where}}',
    file: 'Arquivo {{id}}',
    passage: '{{file}}, trecho {{n}}',
  },
  options: {
    noWebSearch: 'Sem pesquisa na web',
    webSearch: 'Pesquisa na web',
    searchSite: 'Pesquisar no {{site}}',
    siteSearch: 'Pesquisa no {{site}}',
    noTools: 'Sem ferramentas',
    on: 'Ligado',
    off: 'Desligado',
    items_one: '{{count}} item',
    items_other: '{{count}} itens',
    labels: { model: 'Modelo', temperature: 'Temperatura', prompt: 'Pedido', size: 'Tamanho', text: 'Texto', topic: 'Assunto', length: 'Extensão', target_language: 'Idioma de destino', points: 'Pontos', tone: 'Tom', words: 'Palavras', style: 'Estilo', duration: 'Duração', idea: 'Ideia' },
  },
};
