import type { LoadPage, PageModule } from './routes.tsx';

/** Every page module as its own chunk (Vite), keyed by its path from src/client, as the route table names it. */
const modules = import.meta.glob<PageModule>(['/*/pages/*.tsx', '/app/routes/*.tsx']);

/** The browser's loader of a route table page. */
export const loadPage: LoadPage = (page) => {
  const load = modules[`/${page}`];
  if (!load) return Promise.reject(new Error(`La página ${page} no existe`));
  return load();
};
