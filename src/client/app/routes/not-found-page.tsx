import { NotFound } from '@/client/ui/not-found.tsx';

/** Any address outside the route table: 'Página no encontrada' (the server answers 404). */
export function Component() {
  return <NotFound />;
}
