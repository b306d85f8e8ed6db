output "peering" {
  description = "What the peering module needs from this region."
  value = {
    name            = var.name
    cloud_region    = local.region.cloud_region
    vpc_id          = module.network.vpc_id
    cidr            = local.region.cidr
    route_table_ids = module.network.private_route_table_ids
  }
}

output "endpoints" {
  description = "How to reach the region: Cassandra DC and contact points, Kafka bootstrap, broker URL."
  value = {
    dc                = local.region.dc
    cassandra         = module.cassandra.contact_points
    kafka             = module.kafka.bootstrap_servers
    broker_url        = module.services.broker_url
    broker_instance   = module.services.broker_instance_id
    secret_arns       = { for k, s in aws_secretsmanager_secret.this : k => s.arn }
    internode_allowed = flatten([for p in values(local.peers) : [for c in p.cassandra : c.ip]])
  }
}

output "security_group_ids" {
  description = "Security groups of the region's tiers."
  value = {
    cassandra = module.cassandra.security_group_id
    kafka     = module.kafka.security_group_id
    broker    = module.services.broker_security_group_id
    ticker    = module.services.ticker_security_group_id
  }
}

output "ingress" {
  description = "Every ingress rule of the region's tiers, by tier (for audits and tests)."
  value = {
    cassandra = module.cassandra.ingress
    kafka     = module.kafka.ingress
    services  = module.services.ingress
  }
}

output "cassandra_yaml" {
  description = "The cassandra.yaml of each node of the region's DC, by address."
  value       = module.cassandra.cassandra_yaml
}

output "rackdc" {
  description = "The cassandra-rackdc.properties of each node of the region's DC, by address."
  value       = module.cassandra.rackdc
}
