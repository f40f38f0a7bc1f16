// Mailer: subject line of the invoice e-mail. Business customers have a company; private
// customers (added when the shop opened to consumers) have only their own name.

export const scenario = {
  id: 'invoice-subject-private-customer',
  title: 'template string: customer.company missing for private customers',
  entry: 'subject',
  healthy: [
    [{ number: 'F-2024-001', due: '2024-06-30', customer: { name: 'Ann Lee', company: { name: 'Lee & Sons' } } }],
    [{ number: 'F-2024-002', due: '2024-07-15', customer: { name: 'Bo Berg', company: { name: 'Nordic Tools AB' } } }],
    [{ number: 'F-2024-003', due: '2024-07-31', customer: { name: 'Cy Chan', company: { name: 'Chan Logistics' } } }],
  ],
  failing: [
    [{ number: 'F-2024-004', due: '2024-08-01', customer: { name: 'Di Diaz' } }],
  ],
  hidden: [
    [{ number: 'F-2024-010', due: '2024-09-01', customer: { name: 'Eve Ek' } }],
    [{ number: 'F-2024-011', due: '2024-09-02', customer: { name: 'Fay Fox', company: null } }],
    [{ number: 'F-2024-012', due: '2024-09-03', customer: { name: 'Gus Gray', company: { name: 'Gray Media' } } }],
  ],
};

export function createApp(repair) {
  const subject = repair.wrap('invoice-subject', 'Subject of the invoice e-mail: invoice number, who it is billed to, due date', (invoice) => {
    return `Invoice ${invoice.number} for ${invoice.customer.company.name}, due ${invoice.due}`;
  });
  return { subject };
}

/** Billed to the company when there is one, else to the customer by name. */
export function intended(invoice) {
  return `Invoice ${invoice.number} for ${invoice.customer.company?.name ?? invoice.customer.name}, due ${invoice.due}`;
}
