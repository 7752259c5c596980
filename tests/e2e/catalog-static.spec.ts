import { expect, test } from '@playwright/test';

const pages: { path: string; title: string; texts: (string | RegExp)[] }[] = [
  {
    path: '/contacto',
    title: 'Contacto',
    texts: [
      'Av. Mariano Otero 1249, Int. 4',
      '33 3615 2040',
      '33 3615 2041',
      '33 3122 8890',
      'Lunes a viernes de 8:00 a 18:00 h',
      'ventas@ciencia-occidente.mx',
    ],
  },
  {
    path: '/sucursales',
    title: 'Sucursales',
    texts: [
      'Sucursal Guadalajara',
      'Sucursal Ciudad de México',
      'Oficina matriz y almacén',
      'Calz. de Tlalpan 1580',
      '55 5672 3310',
      'cdmx@ciencia-occidente.mx',
    ],
  },
  {
    path: '/politica_de_venta',
    title: 'Política de venta',
    texts: [
      'los precios cotizados se respetan durante 30 días',
      '$300.00 más IVA',
      '$2,000.00 más IVA',
      'pedido mínimo de $5,000.00. No aplica para distribuidores',
      'No se aceptan devoluciones de reactivos químicos ni biológicos',
      'garantía de 1 año',
      'como lámparas, electrodos y resistencias',
      'LAB (libre a bordo) Guadalajara',
      'no se aceptan pedidos por teléfono',
      'no se aceptan cancelaciones de pedidos ya procesados',
    ],
  },
  {
    path: '/politica_de_devoluciones',
    title: 'Política de devoluciones',
    texts: [
      'dentro de los 10 días siguientes a la entrega',
      'artículo 56',
      '5 días hábiles',
      'Garantía limitada',
    ],
  },
  {
    path: '/politica_de_privacidad',
    title: 'Aviso de privacidad',
    texts: [
      '20 de marzo de 2025',
      'Finalidades necesarias',
      'Finalidades voluntarias',
      'Cómo negarse a las finalidades voluntarias',
      'Sus derechos ARCO',
      'privacidad@ciencia-occidente.mx',
      'Cambios a este aviso',
    ],
  },
  {
    path: '/cookies_policy',
    title: 'Política de cookies',
    texts: ['No usamos cookies de publicidad, de analítica ni de seguimiento', 'cartItems'],
  },
  {
    path: '/terminos_y_condiciones',
    title: 'Términos y condiciones',
    texts: ['Uso del sitio', 'incluyen IVA', 'Profeco'],
  },
  {
    path: '/politica_de_envios',
    title: 'Política de envíos',
    texts: [
      '$300.00',
      'por pedido de hasta 5 kg',
      '$30.00',
      'por cada kilogramo adicional o fracción',
      'guía de rastreo',
      'Recoger en sucursal',
      'no viajan por avión',
      '$180.00',
    ],
  },
  {
    path: '/facturacion',
    title: 'Facturación',
    texts: ['CFDI 4.0', '30 días naturales', 'RFC', 'Régimen fiscal', 'Uso del CFDI', 'Código postal'],
  },
  { path: '/nosotros', title: 'Nosotros', texts: ['Suministros Científicos de Occidente, S.A. de C.V.'] },
];

for (const p of pages) {
  test(`${p.path} shows its heading and key texts`, async ({ page }) => {
    await page.goto(p.path);
    await expect(page.getByRole('heading', { level: 1, name: p.title })).toBeVisible();
    await expect(page).toHaveTitle(`${p.title} | Ciencia Occidente`);
    const article = page.locator('article').first();
    for (const text of p.texts) await expect(article.getByText(text).first()).toBeVisible();
  });
}

test('the FAQ is an accordion of real questions', async ({ page }) => {
  await page.goto('/preguntas_frecuentes');
  await expect(page.getByRole('heading', { level: 1, name: 'Preguntas frecuentes' })).toBeVisible();
  const questions = page.locator('details');
  expect(await questions.count()).toBeGreaterThanOrEqual(6);
  const answer = page.getByText('Sí. Todos los precios de la tienda están en pesos mexicanos');
  await expect(answer).toBeHidden();
  await page.getByText('¿Los precios incluyen IVA?').click();
  await expect(answer).toBeVisible();
  await page.getByText('¿Los precios incluyen IVA?').click();
  await expect(answer).toBeHidden();
});

test('the side index moves between the static pages', async ({ page }) => {
  await page.goto('/nosotros');
  const index = page.getByRole('navigation', { name: 'Información de la tienda' });
  await expect(index.getByRole('link', { name: 'Nosotros' })).toHaveAttribute('aria-current', 'page');
  await index.getByRole('link', { name: 'Política de envíos' }).click();
  await expect(page).toHaveURL(/\/politica_de_envios$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Política de envíos' })).toBeVisible();
});
