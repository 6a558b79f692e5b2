import type { CountingStation, CountingValue } from '../../core/records/roads.ts';
import { find, findAll, numberAt, textOf, type XNode } from './datex2.ts';
import { zoned } from './situation.ts';

/** One DATEX II v2 siteMeasurements element: the site id, its time and every measured value. */
export function parseSiteMeasurements(site: XNode, publicationTime: string | null): CountingStation {
  const ref = find(site, 'measurementSiteReference');
  // Values nest as measuredValue[index] > measuredValue > basicData[xsi:type].
  const values: CountingValue[] = site.children
    .filter((c) => c.name === 'measuredValue')
    .map((outer) => {
      const data = find(outer, 'basicData');
      const type = data?.attrs.type ?? '';
      const flow = data ? numberAt(data, 'vehicleFlowRate') : null;
      const speed = data ? numberAt(data, 'speed') : null;
      return {
        index: outer.attrs.index ?? null,
        kind: type === 'TrafficFlow' || (flow !== null && speed === null) ? 'flow' : type === 'TrafficSpeed' || speed !== null ? 'speed' : 'other',
        vehicle_flow_per_hour: flow,
        average_speed_kmh: speed,
      };
    });
  const flows = values.map((v) => v.vehicle_flow_per_hour).filter((n): n is number => n !== null);
  const speeds = values.map((v) => v.average_speed_kmh).filter((n): n is number => n !== null);
  const time =
    textOf(find(site, 'measurementTimeDefault')) ??
    findAll(site, 'measurementOrCalculationTime')
      .map(textOf)
      .find((t) => t !== null) ??
    publicationTime;
  return {
    id: ref?.attrs.id ?? null,
    measured_at: zoned(time ?? null),
    vehicle_flow_per_hour: flows.length ? flows.reduce((a, b) => a + b, 0) : null,
    average_speed_kmh: speeds.length ? Math.round((speeds.reduce((a, b) => a + b, 0) / speeds.length) * 10) / 10 : null,
    values,
  };
}
