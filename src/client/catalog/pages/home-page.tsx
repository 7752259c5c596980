import { PageHeading } from '@/client/ui/page-heading.tsx';
import { shop } from '@/shared/shop.ts';

// The catalogue issue builds the hero and the brands; until then the home shows the shop's name.
export function Component() {
  return <PageHeading title={shop.legalName} />;
}
