package command

import "orrery/engine/lang"

// Orders marks the line below which every line is an order (an order that looks like a command, say).
const Orders Name = "ORDERS"

// OrdersCmd is ORDERS.
var OrdersCmd = Descriptor{
	Name: Orders,
	Help: []HelpLine{{"ORDERS <game>", "every line below is an order"},
		{"ORDERS <game> TURN 7", "the orders below are for that later turn (NEXT: the next one): held, applied when the turn asks you for orders and checked then; ORDERS <game> alone lists what you hold"}},
	Usage: lang.M("write ORDERS and maybe a game, like: ORDERS demo1, then your orders below (ORDERS demo1 TURN 7 for a later turn)"),
	Kind:  Marker, Limit: Unlimited,
	Parse:     parseOrders,
	Examples:  []string{"ORDERS demo1", "orders", "ORDERS demo1 TURN 7", "orders next"},
	Malformed: "ORDERS demo1 now",
}
