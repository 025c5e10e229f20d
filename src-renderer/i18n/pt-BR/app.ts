import type { Catalog } from '../catalog';

export const app: Catalog['app'] = {
  screens: {
    chat: 'Conversas',
    agents: 'Agentes',
    files: 'Arquivos',
    memories: 'Memórias',
    webhooks: 'Webhooks',
    schedules: 'Agendamentos',
    usage: 'Uso',
    settings: 'Configurações',
    developer: 'Desenvolvedor',
  },
  screensNav: 'Telas',
  screenShortcut: '{{screen}} (g e depois {{key}})',
  theme: {
    system: 'Tema: do sistema',
    light: 'Tema: claro',
    dark: 'Tema: escuro',
    change: '{{theme}}. Mudar o tema',
  },
  skipToMessageBox: 'Pular para a caixa de mensagem',
  skipToContent: 'Pular para o conteúdo',
  signedOut: {
    title: 'Sessão encerrada',
    noSession: 'Este navegador não tem uma sessão no Agent Desk, ou a sessão terminou.',
    howToSignIn:
      'Abra o link de acesso de uso único que o <code>npm run serve</code> mostrou no terminal, ou use o app para desktop. O link funciona uma vez só; para ter um novo, inicie o servidor de novo.',
  },
};
