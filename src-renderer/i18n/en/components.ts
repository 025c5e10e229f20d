/** Shared components (model picker, copy button, dialogs, notices, answers' markdown). */
export const components = {
  copy: {
    label: 'Copy',
    copied: 'Copied.',
    failed: 'Could not copy: the clipboard is not available here. Select the text instead.',
  },
  error: {
    notAvailableOf: '{{what}}: not available',
    notAvailable: 'Not available',
    notOffered: 'This version of the platform does not offer this yet.',
    details: 'Details',
  },
  drop: {
    attach: 'Drop to attach to your message',
    upload: 'Drop to upload',
  },
  models: {
    loading: 'Loading models…',
    none: 'No model available: add a provider in Settings',
    choose: 'Choose a model',
    notServed: '{{model}} (not served now)',
    isDefault: '{{model}} (default)',
  },
  image: {
    blockedTitle: 'External images are not loaded',
    blocked: '[image not loaded]',
    blockedWithAlt: '[image not loaded: {{alt}}]',
  },
  link: {
    title: 'Open this link?',
    open: 'Open link',
    outside: 'It opens outside Agent Desk:',
  },
  markdown: {
    close: 'Close',
    copied: 'Copied',
    copyCode: 'Copy code',
    copyLink: 'Copy link',
    copyTable: 'Copy table',
    copyTableAsCsv: 'Copy table as CSV',
    copyTableAsMarkdown: 'Copy table as Markdown',
    copyTableAsTsv: 'Copy table as TSV',
    imageNotAvailable: 'Image not available',
    openLink: 'Open link',
    openExternalLink: 'Open external link?',
    externalLinkWarning: 'You are about to visit an external website.',
    viewFullscreen: 'View fullscreen',
    exitFullscreen: 'Exit fullscreen',
  },
  toast: {
    dismiss: 'Dismiss',
  },
  citation: {
    source: 'Source {{n}}: {{where}}',
    file: 'File {{id}}',
    passage: '{{file}}, passage {{n}}',
  },
  options: {
    noWebSearch: 'No web search',
    webSearch: 'Web search',
    searchSite: 'Search {{site}}',
    siteSearch: '{{site}} search',
    noTools: 'No tools',
    on: 'On',
    off: 'Off',
    items_one: '{{count}} item',
    items_other: '{{count}} items',
    // The built-in agents' questions, by name.
    labels: { model: 'Model', temperature: 'Temperature', prompt: 'Prompt', size: 'Size', text: 'Text', topic: 'Topic', length: 'Length', target_language: 'Target language', points: 'Points', tone: 'Tone', words: 'Words', style: 'Style', duration: 'Duration', idea: 'Idea' },
  },
};
