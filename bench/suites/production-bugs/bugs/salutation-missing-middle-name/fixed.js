function salutation(customer) {
  return `Dear ${customer.first}${customer.middle != null ? ` ${customer.middle}` : ''} ${customer.last},`;
}
