// The desktop build of the startup bench: the project's electron-vite config without the renderer
// (the bench drives the page's bridge, never loads the page), so a page being edited cannot stop it.
import config from '../electron.vite.config';

export default { ...config, renderer: undefined };
