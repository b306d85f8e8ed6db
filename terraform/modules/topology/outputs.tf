output "regions" {
  description = "Per region name: its input settings plus subnets and the private address (and zone index) of every node."
  value       = local.regions
}

output "seeds" {
  description = "Cassandra seed addresses per region; every node of every DC lists all of them."
  value       = local.seeds
}

output "all_seeds" {
  description = "The seeds of all DCs, flattened in topology order."
  value       = flatten([for r in var.regions : local.seeds[r.name]])
}

output "properties" {
  description = "The topology file (properties format, read by io.geobroker.domain.Topology) every service of every region loads."
  value       = "${join("\n", local.topology_lines)}\n"
}
