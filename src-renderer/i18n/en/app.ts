/** The app's frame: the screens list, skip link, theme button, signed-out notice. */
export const app = {
  screens: {
    chat: 'Chat',
    agents: 'Agents',
    files: 'Files',
    memories: 'Memories',
    webhooks: 'Webhooks',
    schedules: 'Schedules',
    usage: 'Usage',
    settings: 'Settings',
    developer: 'Developer',
  },
  screensNav: 'Screens',
  screenShortcut: '{{screen}} (g then {{key}})',
  theme: {
    system: 'Theme: system',
    light: 'Theme: light',
    dark: 'Theme: dark',
    change: '{{theme}}. Change theme',
  },
  skipToMessageBox: 'Skip to message box',
  skipToContent: 'Skip to content',
  signedOut: {
    title: 'Signed out',
    noSession: 'This browser has no session with Agent Desk, or the session has ended.',
    howToSignIn:
      'Open the one-time login link that <code>npm run serve</code> printed in its terminal, or use the desktop app. The link works once; start the server again for a new one.',
  },
};
