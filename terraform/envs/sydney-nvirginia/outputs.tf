output "endpoints" {
  description = "Per region: Cassandra DC and contact points, Kafka bootstrap, broker URL, broker instance, secret ARNs."
  value       = { for name, m in local.deployed : name => m.endpoints }

  precondition {
    condition     = sort(keys(local.deployed)) == sort([for r in var.regions : r.name])
    error_message = "var.regions and the region module blocks in main.tf must name the same regions."
  }
}

output "topology" {
  description = "The topology file every service loads (also installed on every service instance)."
  value       = module.topology.properties
}

output "ingress" {
  description = "Every ingress rule of every tier of every region."
  value       = { for name, m in local.deployed : name => m.ingress }
}

output "peering_connection_ids" {
  description = "VPC peering connections between the regions."
  value       = { "sydney-nvirginia" = module.peering_sydney_nvirginia.peering_connection_id }
}
