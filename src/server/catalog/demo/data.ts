import { moreReagents } from './reagents.ts';

/** Fictional brands and lab-supply groups of the demo catalogue (no real trademarks). */
export const demoBrands = [
  { name: 'Cristalux', prefix: 'CRX', color: '#1d6fb8', featured: true },
  { name: 'Metrion', prefix: 'MTR', color: '#0f766e', featured: true },
  { name: 'Termaris', prefix: 'TRM', color: '#b45309', featured: true },
  { name: 'Quimiva', prefix: 'QMV', color: '#7c3aed', featured: true },
  { name: 'Polimérica', prefix: 'PLM', color: '#be123c', featured: true },
  { name: 'Protexa', prefix: 'PTX', color: '#15803d', featured: false },
  { name: 'Microcult', prefix: 'MCC', color: '#c2410c', featured: false },
  { name: 'Labnova', prefix: 'LBN', color: '#0369a1', featured: false },
  { name: 'Volumétrika', prefix: 'VLK', color: '#4d7c0f', featured: false },
  { name: 'Analytix', prefix: 'ANX', color: '#334155', featured: false },
  { name: 'Pipetta', prefix: 'PPT', color: '#a21caf', featured: false },
  { name: 'Dosivel', prefix: 'DSV', color: '#0e7490', featured: false },
] as const;

export type Shape = 'flask' | 'beaker' | 'bottle' | 'device' | 'balance' | 'glove' | 'dish' | 'box';

export type Template = {
  /** {v} is replaced by a variant (volume, capacity…). */
  name: string;
  variants: readonly string[];
  type: string;
  price: [number, number];
  weight: [number, number];
  short: string;
};

export type SubgroupDef = { clas: string; name: string; shape: Shape; templates: Template[] };
export type GroupDef = { clas: string; name: string; subgroups: SubgroupDef[] };

const vols = ['25', '50', '100', '250', '500', '1000', '2000'] as const;

export const demoGroups: GroupDef[] = [
  {
    clas: 'VID',
    name: 'Material de vidrio',
    subgroups: [
      {
        clas: 'VID-MAT',
        name: 'Matraces',
        shape: 'flask',
        templates: [
          {
            name: 'Matraz Erlenmeyer de {v} ml, boca angosta',
            variants: vols,
            type: 'Vidrio borosilicato 3.3',
            price: [45, 780],
            weight: [0.05, 0.9],
            short: 'Matraz Erlenmeyer graduado de vidrio borosilicato resistente al choque térmico.',
          },
          {
            name: 'Matraz volumétrico clase A de {v} ml con tapón',
            variants: vols,
            type: 'Vidrio borosilicato 3.3',
            price: [180, 1650],
            weight: [0.08, 1.1],
            short: 'Matraz aforado clase A con certificado de lote y tapón intercambiable.',
          },
          {
            name: 'Matraz Kitasato de {v} ml con oliva',
            variants: ['250', '500', '1000', '2000'],
            type: 'Vidrio borosilicato 3.3',
            price: [260, 1900],
            weight: [0.2, 1.4],
            short: 'Matraz de filtración al vacío con pared reforzada y conexión lateral.',
          },
          {
            name: 'Matraz bola fondo plano de {v} ml',
            variants: vols,
            type: 'Vidrio borosilicato 3.3',
            price: [120, 980],
            weight: [0.08, 1.0],
            short: 'Matraz de fondo plano para calentamiento y reflujo.',
          },
        ],
      },
      {
        clas: 'VID-VAS',
        name: 'Vasos de precipitado',
        shape: 'beaker',
        templates: [
          {
            name: 'Vaso de precipitado forma baja de {v} ml',
            variants: vols,
            type: 'Vidrio borosilicato 3.3',
            price: [38, 690],
            weight: [0.04, 0.8],
            short: 'Vaso Griffin graduado con pico vertedor.',
          },
          {
            name: 'Vaso de precipitado forma alta de {v} ml',
            variants: vols,
            type: 'Vidrio borosilicato 3.3',
            price: [52, 740],
            weight: [0.05, 0.85],
            short: 'Vaso Berzelius de forma alta, graduación en esmalte blanco.',
          },
        ],
      },
      {
        clas: 'VID-PRO',
        name: 'Probetas',
        shape: 'beaker',
        templates: [
          {
            name: 'Probeta graduada clase B de {v} ml, base hexagonal',
            variants: vols,
            type: 'Vidrio borosilicato 3.3',
            price: [95, 1450],
            weight: [0.1, 1.3],
            short: 'Probeta con base hexagonal antivuelco y graduación permanente.',
          },
          {
            name: 'Probeta con tapón esmerilado de {v} ml',
            variants: ['50', '100', '250', '500', '1000'],
            type: 'Vidrio borosilicato 3.3',
            price: [210, 1780],
            weight: [0.15, 1.4],
            short: 'Probeta para mezclas con tapón de vidrio esmerilado.',
          },
        ],
      },
      {
        clas: 'VID-PIP',
        name: 'Pipetas y buretas',
        shape: 'bottle',
        templates: [
          {
            name: 'Pipeta volumétrica clase A de {v} ml',
            variants: ['1', '2', '5', '10', '20', '25', '50'],
            type: 'Vidrio AR',
            price: [85, 420],
            weight: [0.02, 0.1],
            short: 'Pipeta de un aforo, clase A, con código de color.',
          },
          {
            name: 'Bureta clase A de {v} ml con llave de PTFE',
            variants: ['10', '25', '50', '100'],
            type: 'Vidrio borosilicato 3.3',
            price: [690, 2450],
            weight: [0.2, 0.5],
            short: 'Bureta recta con llave de PTFE y franja Schellbach.',
          },
        ],
      },
    ],
  },
  {
    clas: 'EQU',
    name: 'Equipo de laboratorio',
    subgroups: [
      {
        clas: 'EQU-BAL',
        name: 'Balanzas',
        shape: 'balance',
        templates: [
          {
            name: 'Balanza analítica {v} g × 0.1 mg con calibración interna',
            variants: ['120', '220', '320'],
            type: 'Digital',
            price: [38500, 98000],
            weight: [6, 9],
            short: 'Balanza analítica con cámara de pesaje, calibración interna y salida USB.',
          },
          {
            name: 'Balanza semianalítica {v} g × 1 mg',
            variants: ['220', '620', '1200'],
            type: 'Digital',
            price: [14800, 36500],
            weight: [4, 6.5],
            short: 'Balanza de precisión con pantalla retroiluminada y cortaviento.',
          },
          {
            name: 'Balanza granataria {v} g × 0.1 g',
            variants: ['610', '2610', '4100'],
            type: 'Analógica',
            price: [2900, 7400],
            weight: [2, 4.5],
            short: 'Balanza mecánica de triple brazo, sin necesidad de energía eléctrica.',
          },
        ],
      },
      {
        clas: 'EQU-CEN',
        name: 'Centrífugas',
        shape: 'device',
        templates: [
          {
            name: 'Centrífuga de mesa {v} rpm, rotor para 12 tubos',
            variants: ['4000', '6000', '12000'],
            type: 'Digital',
            price: [18900, 74000],
            weight: [9, 22],
            short: 'Centrífuga con tapa de seguridad, temporizador y rotor angular.',
          },
          {
            name: 'Microcentrífuga {v} rpm para tubos de 1.5 ml',
            variants: ['13500', '15000'],
            type: 'Digital',
            price: [21500, 46800],
            weight: [5, 8],
            short: 'Microcentrífuga compacta para biología molecular.',
          },
        ],
      },
      {
        clas: 'EQU-PAR',
        name: 'Parrillas y agitadores',
        shape: 'device',
        templates: [
          {
            name: 'Parrilla de calentamiento con agitación, plato de {v} cm',
            variants: ['13', '18', '20'],
            type: 'Digital',
            price: [6900, 24500],
            weight: [3, 6],
            short: 'Placa cerámica hasta 550 °C con agitación magnética de 100 a 1500 rpm.',
          },
          {
            name: 'Agitador vórtex de velocidad variable {v} rpm',
            variants: ['2500', '3000'],
            type: 'Analógico',
            price: [4200, 9800],
            weight: [2, 4],
            short: 'Agitador de tubos con modo continuo y por contacto.',
          },
          {
            name: 'Agitador orbital de plataforma {v} × {v} cm',
            variants: ['30', '45'],
            type: 'Digital',
            price: [16500, 52000],
            weight: [10, 25],
            short: 'Agitador orbital con temporizador y plataforma universal.',
          },
        ],
      },
      {
        clas: 'EQU-EST',
        name: 'Estufas e incubadoras',
        shape: 'box',
        templates: [
          {
            name: 'Estufa de secado por convección {v} L',
            variants: ['30', '55', '110'],
            type: 'Digital',
            price: [28000, 128000],
            weight: [30, 75],
            short: 'Estufa con control PID hasta 250 °C y alarma de sobretemperatura.',
          },
          {
            name: 'Incubadora bacteriológica {v} L',
            variants: ['20', '50', '150'],
            type: 'Digital',
            price: [24500, 185000],
            weight: [22, 90],
            short: 'Incubadora con puerta interior de vidrio y uniformidad de ±0.5 °C.',
          },
          {
            name: 'Baño maría de {v} L con control digital',
            variants: ['6', '12', '22'],
            type: 'Digital',
            price: [8900, 26500],
            weight: [6, 14],
            short: 'Baño de agua de acero inoxidable con tapa de dos aguas.',
          },
        ],
      },
    ],
  },
  {
    clas: 'REA',
    name: 'Reactivos',
    subgroups: [
      {
        clas: 'REA-ACI',
        name: 'Ácidos',
        shape: 'bottle',
        templates: [
          {
            name: 'Ácido clorhídrico 37 % grado ACS, {v} L',
            variants: ['1', '2.5', '4'],
            type: 'Grado ACS',
            price: [420, 1850],
            weight: [1.3, 5.2],
            short: 'Ácido clorhídrico fumante para análisis.',
          },
          {
            name: 'Ácido sulfúrico 98 % grado reactivo, {v} L',
            variants: ['1', '2.5'],
            type: 'Grado reactivo',
            price: [560, 1790],
            weight: [2, 5],
            short: 'Ácido sulfúrico concentrado para análisis y digestión.',
          },
          {
            name: 'Ácido nítrico 65 % grado ACS, {v} L',
            variants: ['1', '2.5'],
            type: 'Grado ACS',
            price: [690, 2100],
            weight: [1.6, 4],
            short: 'Ácido nítrico para análisis de metales.',
          },
          {
            name: 'Ácido acético glacial 99.7 %, {v} L',
            variants: ['1', '4'],
            type: 'Grado reactivo',
            price: [380, 1390],
            weight: [1.2, 4.6],
            short: 'Ácido acético glacial para análisis.',
          },
          ...moreReagents['REA-ACI'],
        ],
      },
      {
        clas: 'REA-BAS',
        name: 'Bases y sales',
        shape: 'bottle',
        templates: [
          {
            name: 'Hidróxido de sodio en lentejas grado ACS, {v} kg',
            variants: ['0.5', '1', '2.5'],
            type: 'Grado ACS',
            price: [290, 1250],
            weight: [0.6, 2.7],
            short: 'Hidróxido de sodio sólido, pureza ≥ 97 %.',
          },
          {
            name: 'Cloruro de sodio grado reactivo, {v} kg',
            variants: ['0.5', '1', '2.5'],
            type: 'Grado reactivo',
            price: [150, 720],
            weight: [0.6, 2.7],
            short: 'Cloruro de sodio cristal para preparación de soluciones.',
          },
          {
            name: 'Sulfato de cobre pentahidratado, {v} g',
            variants: ['250', '500', '1000'],
            type: 'Grado reactivo',
            price: [260, 980],
            weight: [0.3, 1.1],
            short: 'Sulfato cúprico en cristales azules.',
          },
          ...moreReagents['REA-BAS'],
        ],
      },
      {
        clas: 'REA-SOL',
        name: 'Solventes',
        shape: 'bottle',
        templates: [
          {
            name: 'Etanol absoluto grado HPLC, {v} L',
            variants: ['1', '4'],
            type: 'Grado HPLC',
            price: [640, 2650],
            weight: [0.9, 3.6],
            short: 'Alcohol etílico anhidro para cromatografía.',
          },
          {
            name: 'Acetona grado ACS, {v} L',
            variants: ['1', '4'],
            type: 'Grado ACS',
            price: [330, 1290],
            weight: [0.9, 3.4],
            short: 'Acetona para análisis y limpieza de material.',
          },
          {
            name: 'Metanol grado HPLC, {v} L',
            variants: ['1', '4'],
            type: 'Grado HPLC',
            price: [520, 2300],
            weight: [0.9, 3.4],
            short: 'Metanol de alta pureza para HPLC.',
          },
          ...moreReagents['REA-SOL'],
        ],
      },
      {
        clas: 'REA-IND',
        name: 'Indicadores y soluciones',
        shape: 'bottle',
        templates: [
          {
            name: 'Fenolftaleína solución 1 %, {v} ml',
            variants: ['100', '250', '500'],
            type: 'Solución valorada',
            price: [120, 460],
            weight: [0.15, 0.6],
            short: 'Indicador ácido-base en solución alcohólica.',
          },
          {
            name: 'Solución buffer pH {v}, 500 ml',
            variants: ['4.00', '7.00', '10.00'],
            type: 'Solución valorada',
            price: [210, 390],
            weight: [0.55, 0.6],
            short: 'Solución amortiguadora trazable para calibración de potenciómetros.',
          },
        ],
      },
    ],
  },
  {
    clas: 'MED',
    name: 'Medición y análisis',
    subgroups: [
      {
        clas: 'MED-PHM',
        name: 'Potenciómetros (pH)',
        shape: 'device',
        templates: [
          {
            name: 'Potenciómetro de mesa pH/mV/°C, resolución {v}',
            variants: ['0.01', '0.001'],
            type: 'Digital',
            price: [7800, 32500],
            weight: [1, 2.5],
            short: 'Medidor de pH con compensación de temperatura y memoria de 500 datos.',
          },
          {
            name: 'Medidor de pH de bolsillo, rango 0–{v}',
            variants: ['14'],
            type: 'Digital',
            price: [980, 2600],
            weight: [0.1, 0.2],
            short: 'Medidor portátil resistente al agua con electrodo reemplazable.',
          },
        ],
      },
      {
        clas: 'MED-TER',
        name: 'Termómetros',
        shape: 'bottle',
        templates: [
          {
            name: 'Termómetro de vidrio −10 a {v} °C, inmersión parcial',
            variants: ['110', '150', '260'],
            type: 'Analógico',
            price: [95, 480],
            weight: [0.03, 0.06],
            short: 'Termómetro de líquido rojo, libre de mercurio.',
          },
          {
            name: 'Termómetro digital con sonda, −50 a {v} °C',
            variants: ['300'],
            type: 'Digital',
            price: [390, 1650],
            weight: [0.1, 0.2],
            short: 'Termómetro de punción con sonda de acero inoxidable.',
          },
        ],
      },
      {
        clas: 'MED-ESP',
        name: 'Espectrofotómetros',
        shape: 'device',
        templates: [
          {
            name: 'Espectrofotómetro UV-Vis {v} a 1100 nm',
            variants: ['190', '320'],
            type: 'Digital',
            price: [68000, 175000],
            weight: [9, 16],
            short: 'Espectrofotómetro de haz simple con software de cinética.',
          },
          {
            name: 'Colorímetro portátil de {v} longitudes de onda',
            variants: ['4', '6'],
            type: 'Digital',
            price: [12500, 29800],
            weight: [0.5, 1],
            short: 'Colorímetro para análisis de agua en campo.',
          },
        ],
      },
      {
        clas: 'MED-CON',
        name: 'Conductímetros',
        shape: 'device',
        templates: [
          {
            name: 'Conductímetro de mesa, rango hasta {v} mS/cm',
            variants: ['200', '500'],
            type: 'Digital',
            price: [9800, 38000],
            weight: [1, 2.5],
            short: 'Medidor de conductividad, TDS y salinidad.',
          },
        ],
      },
    ],
  },
  {
    clas: 'PLA',
    name: 'Plásticos',
    subgroups: [
      {
        clas: 'PLA-PUN',
        name: 'Puntas para micropipeta',
        shape: 'box',
        templates: [
          {
            name: 'Puntas universales de {v} µl, rack con 96',
            variants: ['10', '200', '1000'],
            type: 'Polipropileno',
            price: [89, 320],
            weight: [0.1, 0.3],
            short: 'Puntas libres de ADNasa y ARNasa en rack autoclavable.',
          },
          {
            name: 'Puntas con filtro de {v} µl, estériles, 96 piezas',
            variants: ['10', '200', '1000'],
            type: 'Polipropileno',
            price: [190, 540],
            weight: [0.1, 0.3],
            short: 'Puntas con filtro hidrofóbico que evita contaminación cruzada.',
          },
        ],
      },
      {
        clas: 'PLA-TUB',
        name: 'Tubos',
        shape: 'bottle',
        templates: [
          {
            name: 'Tubos cónicos de {v} ml, estériles, bolsa con 50',
            variants: ['15', '50'],
            type: 'Polipropileno',
            price: [180, 420],
            weight: [0.3, 0.8],
            short: 'Tubos tipo Falcon con tapón de rosca y graduación impresa.',
          },
          {
            name: 'Microtubos de {v} ml con tapa, bolsa con 500',
            variants: ['0.5', '1.5', '2.0'],
            type: 'Polipropileno',
            price: [150, 390],
            weight: [0.2, 0.5],
            short: 'Microtubos graduados con tapa de seguridad.',
          },
        ],
      },
      {
        clas: 'PLA-FRA',
        name: 'Frascos y pizetas',
        shape: 'bottle',
        templates: [
          {
            name: 'Frasco de boca ancha de {v} ml',
            variants: ['125', '250', '500', '1000'],
            type: 'Polietileno HDPE',
            price: [45, 190],
            weight: [0.03, 0.12],
            short: 'Frasco de polietileno de alta densidad con tapa de rosca.',
          },
          {
            name: 'Pizeta de {v} ml con tapa de seguridad',
            variants: ['250', '500'],
            type: 'Polietileno LDPE',
            price: [60, 210],
            weight: [0.05, 0.1],
            short: 'Frasco lavador con pico curvo y rotulación de contenido.',
          },
        ],
      },
      {
        clas: 'PLA-GRA',
        name: 'Gradillas',
        shape: 'box',
        templates: [
          {
            name: 'Gradilla para {v} tubos de 16 mm',
            variants: ['20', '40', '60'],
            type: 'Polipropileno',
            price: [120, 380],
            weight: [0.1, 0.3],
            short: 'Gradilla autoclavable con numeración alfanumérica.',
          },
        ],
      },
    ],
  },
  {
    clas: 'SEG',
    name: 'Seguridad',
    subgroups: [
      {
        clas: 'SEG-GUA',
        name: 'Guantes',
        shape: 'glove',
        templates: [
          {
            name: 'Guantes de nitrilo sin polvo talla {v}, caja con 100',
            variants: ['CH', 'M', 'G', 'XG'],
            type: 'Nitrilo',
            price: [165, 320],
            weight: [0.4, 0.6],
            short: 'Guantes desechables ambidiestros con puño enrollado.',
          },
          {
            name: 'Guantes de látex talla {v}, caja con 100',
            variants: ['CH', 'M', 'G'],
            type: 'Látex',
            price: [120, 240],
            weight: [0.4, 0.6],
            short: 'Guantes de exploración con textura en dedos.',
          },
        ],
      },
      {
        clas: 'SEG-LEN',
        name: 'Lentes y caretas',
        shape: 'glove',
        templates: [
          {
            name: 'Lentes de seguridad {v}, antiempañantes',
            variants: ['claros', 'ámbar', 'grises'],
            type: 'Policarbonato',
            price: [75, 260],
            weight: [0.03, 0.06],
            short: 'Lentes con protección UV y patillas ajustables.',
          },
          {
            name: 'Careta facial {v}',
            variants: ['con visor abatible', 'de policarbonato'],
            type: 'Policarbonato',
            price: [190, 690],
            weight: [0.2, 0.4],
            short: 'Protección facial contra salpicaduras químicas.',
          },
        ],
      },
      {
        clas: 'SEG-BAT',
        name: 'Batas',
        shape: 'glove',
        templates: [
          {
            name: 'Bata de laboratorio de algodón talla {v}',
            variants: ['CH', 'M', 'G', 'XG'],
            type: 'Algodón',
            price: [380, 690],
            weight: [0.4, 0.6],
            short: 'Bata blanca de manga larga con tres bolsas.',
          },
        ],
      },
      {
        clas: 'SEG-REG',
        name: 'Regaderas y lavaojos',
        shape: 'device',
        templates: [
          {
            name: 'Estación lavaojos {v}',
            variants: ['de pedestal', 'de pared', 'portátil 60 L'],
            type: 'Acero inoxidable',
            price: [3900, 21500],
            weight: [5, 30],
            short: 'Estación de emergencia conforme a ANSI Z358.1.',
          },
        ],
      },
    ],
  },
  {
    clas: 'MIC',
    name: 'Microbiología',
    subgroups: [
      {
        clas: 'MIC-PET',
        name: 'Cajas Petri',
        shape: 'dish',
        templates: [
          {
            name: 'Caja Petri desechable de {v} mm, estéril, paquete con 20',
            variants: ['60', '90', '150'],
            type: 'Poliestireno',
            price: [65, 240],
            weight: [0.2, 0.5],
            short: 'Cajas Petri con ventilación, esterilizadas por radiación.',
          },
          {
            name: 'Caja Petri de vidrio {v} mm',
            variants: ['60', '100', '150'],
            type: 'Vidrio borosilicato 3.3',
            price: [48, 180],
            weight: [0.1, 0.3],
            short: 'Caja Petri reutilizable de vidrio, tapa y fondo.',
          },
        ],
      },
      {
        clas: 'MIC-MED',
        name: 'Medios de cultivo',
        shape: 'bottle',
        templates: [
          {
            name: 'Agar {v} deshidratado, 500 g',
            variants: ['nutritivo', 'papa dextrosa', 'MacConkey', 'Mueller-Hinton'],
            type: 'Medio deshidratado',
            price: [890, 3200],
            weight: [0.55, 0.6],
            short: 'Medio de cultivo en polvo para microbiología general.',
          },
          {
            name: 'Caldo {v} deshidratado, 500 g',
            variants: ['nutritivo', 'lactosado', 'tripticaseína soya'],
            type: 'Medio deshidratado',
            price: [780, 2900],
            weight: [0.55, 0.6],
            short: 'Caldo de enriquecimiento de alta calidad.',
          },
        ],
      },
      {
        clas: 'MIC-ASA',
        name: 'Asas e hisopos',
        shape: 'bottle',
        templates: [
          {
            name: 'Asa bacteriológica desechable de {v} µl, 20 piezas',
            variants: ['1', '10'],
            type: 'Poliestireno',
            price: [95, 260],
            weight: [0.05, 0.1],
            short: 'Asas estériles de inoculación, empaque individual.',
          },
          {
            name: 'Hisopos estériles con medio de transporte {v}',
            variants: ['Stuart', 'Amies'],
            type: 'Poliestireno',
            price: [320, 980],
            weight: [0.1, 0.3],
            short: 'Hisopos para toma y transporte de muestras.',
          },
        ],
      },
    ],
  },
  {
    clas: 'CON',
    name: 'Consumibles',
    subgroups: [
      {
        clas: 'CON-PAP',
        name: 'Papel filtro',
        shape: 'dish',
        templates: [
          {
            name: 'Papel filtro cualitativo de {v} mm, 100 círculos',
            variants: ['70', '110', '150'],
            type: 'Celulosa',
            price: [12.5, 290],
            weight: [0.05, 0.2],
            short: 'Papel filtro de porosidad media para filtraciones generales.',
          },
          {
            name: 'Papel filtro cuantitativo libre de cenizas {v} mm',
            variants: ['90', '125'],
            type: 'Celulosa',
            price: [190, 760],
            weight: [0.05, 0.2],
            short: 'Papel filtro para análisis gravimétrico.',
          },
        ],
      },
      {
        clas: 'CON-JER',
        name: 'Jeringas y filtros',
        shape: 'bottle',
        templates: [
          {
            name: 'Jeringa desechable de {v} ml sin aguja, caja con 100',
            variants: ['3', '5', '10', '20'],
            type: 'Polipropileno',
            price: [140, 480],
            weight: [0.3, 1],
            short: 'Jeringas con émbolo de doble sello y graduación clara.',
          },
          {
            name: 'Filtro de jeringa de {v} µm, 25 mm, 100 piezas',
            variants: ['0.22', '0.45'],
            type: 'PTFE',
            price: [980, 2600],
            weight: [0.1, 0.2],
            short: 'Filtros de jeringa para preparación de muestras HPLC.',
          },
        ],
      },
      {
        clas: 'CON-VIA',
        name: 'Viales y etiquetas',
        shape: 'box',
        templates: [
          {
            name: 'Viales de {v} ml con tapa y septa, 100 piezas',
            variants: ['2', '4', '20'],
            type: 'Vidrio',
            price: [390, 1450],
            weight: [0.3, 1.2],
            short: 'Viales para cromatografía con septa de PTFE/silicona.',
          },
          {
            name: 'Película selladora de laboratorio, rollo de {v} m',
            variants: ['38', '76'],
            type: 'Parafina',
            price: [420, 890],
            weight: [0.2, 0.4],
            short: 'Película autosellante, flexible y resistente a la humedad.',
          },
        ],
      },
    ],
  },
];

export const demoLines = ['Línea Clásica', 'Línea Pro', 'Serie Educativa', 'Serie Industrial'] as const;

/**
 * Templates whose variants are presentations of one product (decision 021): the family's name without the
 * variant, and the presentation's label with {v}. Only with the seed's `presentations` option; otherwise each
 * variant is a product of its own, as before.
 */
export const demoFamilies: Record<
  string,
  { name: string; label: string; reagent?: { cas: string; formula: string } }
> = {
  'Matraz Erlenmeyer de {v} ml, boca angosta': { name: 'Matraz Erlenmeyer boca angosta', label: '{v} ml' },
  'Vaso de precipitado forma baja de {v} ml': { name: 'Vaso de precipitado forma baja', label: '{v} ml' },
  'Vaso de precipitado forma alta de {v} ml': { name: 'Vaso de precipitado forma alta', label: '{v} ml' },
  'Probeta graduada clase B de {v} ml, base hexagonal': {
    name: 'Probeta graduada clase B, base hexagonal',
    label: '{v} ml',
  },
  'Pipeta volumétrica clase A de {v} ml': { name: 'Pipeta volumétrica clase A', label: '{v} ml' },
  'Ácido clorhídrico 37 % grado ACS, {v} L': {
    name: 'Ácido clorhídrico 37 % grado ACS',
    label: '{v} L',
    reagent: { cas: '7647-01-0', formula: 'HCl' },
  },
  'Ácido sulfúrico 98 % grado reactivo, {v} L': {
    name: 'Ácido sulfúrico 98 % grado reactivo',
    label: '{v} L',
    reagent: { cas: '7664-93-9', formula: 'H2SO4' },
  },
  'Ácido nítrico 65 % grado ACS, {v} L': {
    name: 'Ácido nítrico 65 % grado ACS',
    label: '{v} L',
    reagent: { cas: '7697-37-2', formula: 'HNO3' },
  },
  'Ácido acético glacial 99.7 %, {v} L': {
    name: 'Ácido acético glacial 99.7 %',
    label: '{v} L',
    reagent: { cas: '64-19-7', formula: 'CH3COOH' },
  },
  'Hidróxido de sodio en lentejas grado ACS, {v} kg': {
    name: 'Hidróxido de sodio en lentejas grado ACS',
    label: '{v} kg',
    reagent: { cas: '1310-73-2', formula: 'NaOH' },
  },
  'Cloruro de sodio grado reactivo, {v} kg': {
    name: 'Cloruro de sodio grado reactivo',
    label: '{v} kg',
    reagent: { cas: '7647-14-5', formula: 'NaCl' },
  },
  'Sulfato de cobre pentahidratado, {v} g': {
    name: 'Sulfato de cobre pentahidratado',
    label: '{v} g',
    reagent: { cas: '7758-99-8', formula: 'CuSO4·5H2O' },
  },
  'Etanol absoluto grado HPLC, {v} L': {
    name: 'Etanol absoluto grado HPLC',
    label: '{v} L',
    reagent: { cas: '64-17-5', formula: 'C2H5OH' },
  },
  'Acetona grado ACS, {v} L': {
    name: 'Acetona grado ACS',
    label: '{v} L',
    reagent: { cas: '67-64-1', formula: 'C3H6O' },
  },
  'Metanol grado HPLC, {v} L': {
    name: 'Metanol grado HPLC',
    label: '{v} L',
    reagent: { cas: '67-56-1', formula: 'CH3OH' },
  },
  'Fenolftaleína solución 1 %, {v} ml': { name: 'Fenolftaleína solución 1 %', label: '{v} ml' },
  // The reagents added with their safety data (reagents.ts, decision 027).
  ...Object.fromEntries(
    Object.values(moreReagents)
      .flat()
      .map((r) => [
        r.name,
        {
          name: r.family,
          label: r.label,
          reagent: { cas: r.facts.cas ?? '', formula: r.facts.formula ?? '' },
        },
      ]),
  ),
  'Guantes de nitrilo sin polvo talla {v}, caja con 100': {
    name: 'Guantes de nitrilo sin polvo, caja con 100',
    label: 'talla {v}',
  },
  'Tubos cónicos de {v} ml, estériles, bolsa con 50': {
    name: 'Tubos cónicos estériles, bolsa con 50',
    label: '{v} ml',
  },
};

/** Volume prices of the demo's presentations: from 10 units 5 % off, from 50 units 10 % off (whole pesos). */
export const demoBreaks = [
  { minQuantity: 10, factor: 0.95 },
  { minQuantity: 50, factor: 0.9 },
] as const;
