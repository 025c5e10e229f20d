/** The Settings screen. */
export const settings = {
  title: 'Settings',
  sections: 'Settings sections',
  tabs: {
    providers: 'Providers',
    remote: 'Remote',
    tools: 'MCP servers',
    keys: 'API keys',
    localhost: 'Localhost API',
    data: 'Data folder',
    ocr: 'OCR',
    language: 'Language',
  },
  language: {
    heading: 'Language',
    intro: 'The language of Agent Desk’s screens, dates and numbers. Answers from models follow what you write.',
    label: 'Language',
    system: 'Same as the system ({{language}})',
    saved: 'Language changed',
    failed: 'The language could not be saved: {{reason}}',
    // Each language by its own name, the same in every catalog.
    names: { en: 'English', 'pt-BR': 'Português (Brasil)' },
  },
};
