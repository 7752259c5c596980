import { useParams } from 'react-router';
import { shop } from '@/shared/shop.ts';
import type { Crumb } from '../../ui/breadcrumb.tsx';
import { useDocumentTitle } from '../../ui/page-heading.tsx';
import { useGroups } from '../api/get-groups.ts';
import { countText, ListHeader } from '../components/list-header.tsx';
import { NotFoundView } from '../components/not-found-view.tsx';
import { ProductListing } from '../components/product-listing.tsx';

/** /grupos/:groupName — heading from the response ('Productos' when absent), related brands with counts. */
export function Component() {
  const groupName = useParams().groupName ?? '';
  const groups = useGroups();
  const parent = groups.data?.find((g) => g.subgroups.some((s) => s.clas === groupName));
  // The groups facet ignores the page's own group: keep the sub-groups of this group only.
  const children = new Set(groups.data?.find((g) => g.clas === groupName)?.subgroups.map((s) => s.clas));

  return (
    <ProductListing
      key={groupName}
      base={{ group: [groupName] }}
      facets={['brand', 'line', 'type']}
      brandLinks
      related={(data) => [
        {
          title: 'Subcategorías',
          items: data.facets.groups
            .filter((g) => children.has(g.value))
            .map((g) => ({ label: g.label, count: g.count, to: `/grupos/${encodeURIComponent(g.value)}` })),
        },
      ]}
      unknown={(data) =>
        data.group === null && data.total === 0 ? (
          <NotFoundView
            title="Categoría no encontrada"
            message={`No existe la categoría «${groupName}». Elija una del menú de categorías o busque por nombre.`}
          />
        ) : null
      }
      header={(data) => (
        <GroupHeader title={data.group?.name ?? 'Productos'} total={data.total} parent={parent} />
      )}
    />
  );
}

function GroupHeader({
  title,
  total,
  parent,
}: {
  title: string;
  total: number;
  parent: { clas: string; name: string } | undefined;
}) {
  useDocumentTitle(`${title} | ${shop.tradeName}`);
  const crumbs: Crumb[] = [{ label: 'Inicio', to: '/' }];
  if (parent) crumbs.push({ label: parent.name, to: `/grupos/${encodeURIComponent(parent.clas)}` });
  crumbs.push({ label: title });
  return <ListHeader crumbs={crumbs} title={title} subtitle={countText(total)} />;
}
