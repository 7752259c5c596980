import { PageHeading } from '@/client/ui/page-heading.tsx';

// Built by its own issue; until then the screen shows its heading only.
export function Component() {
  return <PageHeading title="Ajustes" />;
}
