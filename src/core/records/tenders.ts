import { list, num, postCode, record, text, time, z, lazy, type Infer } from '../schema.ts';

export const TenderRecord = lazy(() =>
  record({
    ocid: text('Open Contracting id of the procedure'),
    notice_id: text('Id of the notice (OCDS release id)'),
    title: text('Title of the procurement'),
    description: text('Description, cut to 500 characters'),
    buyer_name: text('Contracting authority'),
    street: text('Street address of the buyer'),
    post_code: postCode(),
    place: text('Place (locality) of the buyer'),
    nuts: text('NUTS region code the buyer address gives'),
    cpv: list(z.string(), 'CPV codes of the procurement (main and item classifications), 8 digits'),
    main_category: text('OCDS main procurement category: goods, works or services'),
    procedure: text('Procurement method as the notice states it'),
    published: time('When the notice was released'),
    deadline: time('End of the tender period (submission deadline)'),
    value_eur: num('Estimated value where stated in euros', 'EUR'),
    tags: list(z.string(), 'OCDS release tags, e.g. tender, award'),
  }),
);
export type TenderRecord = Infer<typeof TenderRecord>;
