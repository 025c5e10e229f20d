import type { Catalog } from '../catalog';

export const settings: Catalog['settings'] = {
  title: 'Configurações',
  sections: 'Seções das configurações',
  tabs: {
    providers: 'Provedores',
    remote: 'Remoto',
    tools: 'Servidores MCP',
    keys: 'Chaves de API',
    localhost: 'API local',
    data: 'Pasta de dados',
    ocr: 'OCR',
    language: 'Idioma',
  },
  language: {
    heading: 'Idioma',
    intro: 'O idioma das telas, datas e números do Agent Desk. As respostas dos modelos seguem o idioma em que você escreve.',
    label: 'Idioma',
    system: 'Igual ao do sistema ({{language}})',
    saved: 'Idioma alterado',
    failed: 'Não foi possível salvar o idioma: {{reason}}',
    names: { en: 'English', 'pt-BR': 'Português (Brasil)' },
  },
};
