import type { SourceDecl } from '../../core/source.ts';

/** VRN (Verkehrsverbund Rhein-Neckar): park-and-ride sites with occupancy sensors, ArcGIS feature layer, keyless. */
export const VRN_PARK_RIDE: SourceDecl = {
  id: 'vrn-park-ride',
  name: 'VRN P+R Sensorik (Realtime)',
  env: 'VRN_PARK_RIDE',
  baseUrl: 'https://spatial.vrn.de/data/rest/services/P_R_Sensorik__Realtime_/FeatureServer/1',
  // The layer is published without login or key; neither the layer nor VRN's portal states a licence.
  license: 'not stated by the publisher (published keyless by VRN)',
  licenseUrl: 'https://spatial.vrn.de/data/rest/services/P_R_Sensorik__Realtime_/FeatureServer/1',
  tier: 'C',
  attribution: 'Verkehrsverbund Rhein-Neckar GmbH (VRN), P+R Sensorik',
  timeoutMs: 10000,
  // The whole layer is a few dozen features.
  maxResponseBytes: 2 * 1024 * 1024,
};
