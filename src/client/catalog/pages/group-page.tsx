import { Navigate, useLocation, useParams } from 'react-router';
import { later, type Prefetch } from '@/client/lib/page-data.ts';
import type { Crumb } from '@/client/ui/breadcrumb.tsx';
import { NotFound } from '@/client/ui/not-found.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { shop } from '@/shared/shop.ts';
import { findGroup, prefetchGroups, useGroups } from '../api/get-groups.ts';
import { prefetchProducts } from '../api/get-products.ts';
import { countText, ListHeader } from '../components/list-header.tsx';
import { lastPageRedirect, listingQuery, ProductListing } from '../components/product-listing.tsx';

const GROUP_NOT_FOUND = 'Categoría no encontrada';
const base = (groupName: string) => ({ group: [groupName] });

/** The group decides the status (the tree is small and read first); its list is still being read meanwhile. */
export const prefetch: Prefetch = async ({ params, search, client, reads }) => {
  const clas = params.groupName ?? '';
  const rest = later(prefetchProducts(client, reads, listingQuery(base(clas), search)));
  const group = findGroup(await prefetchGroups(client, reads), clas);
  if (!group) return { status: 404, facts: { title: GROUP_NOT_FOUND }, rest };
  if (group.clas !== clas) return { redirect: canonical(group.clas, search.toString()) };
  const last = await lastPageRedirect(canonical(clas, ''), search, rest);
  if (last !== null) return { redirect: last, temporary: true };
  return { facts: { title: group.name }, rest };
};

/** The one address of a group (/grupos/vid → /grupos/VID). */
const canonical = (clas: string, query: string) =>
  `/grupos/${encodeURIComponent(clas)}${query ? `?${query.replace(/^\?/, '')}` : ''}`;

/** /grupos/:groupName — heading from the response ('Productos' when absent), related brands with counts. */
export function Component() {
  const groupName = useParams().groupName ?? '';
  const groups = useGroups();
  const found = findGroup(groups.data, groupName);
  const parent = found?.parent;
  const { search } = useLocation();
  // The groups facet ignores the page's own group: keep the sub-groups of this group only.
  const children = new Set(groups.data?.find((g) => g.clas === groupName)?.subgroups.map((s) => s.clas));
  if (found && found.clas !== groupName) return <Navigate to={canonical(found.clas, search)} replace />;

  return (
    <ProductListing
      key={groupName}
      base={base(groupName)}
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
          <NotFound
            title={GROUP_NOT_FOUND}
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
