# The reference deployment: Sydney (ap-southeast-2) and N. Virginia (us-east-1).
# Adding a region (say frankfurt, eu-central-1, FrankfurtDC, XETR): an entry in var.regions, a
# provider alias, one `module "frankfurt"` block like the two below, and one peering block per
# existing region.
module "topology" {
  source = "../../modules/topology"
  regions = [for r in var.regions : {
    name               = r.name
    cloud_region       = r.cloud_region
    cidr               = r.cidr
    dc                 = r.dc
    exchanges          = r.exchanges
    replication_factor = r.replication_factor
    cassandra_nodes    = r.cassandra_nodes
    kafka_brokers      = r.kafka_brokers
    ticker_instances   = r.ticker_instances
  }]
}

locals {
  azs = { for r in var.regions : r.name => r.azs }
}

module "sydney" {
  source                = "../../modules/region"
  providers             = { aws = aws.sydney }
  name                  = "sydney"
  azs                   = local.azs["sydney"]
  topology              = module.topology.regions
  seeds                 = module.topology.all_seeds
  topology_properties   = module.topology.properties
  sizes                 = var.sizes
  rest_allowed_cidrs    = var.rest_allowed_cidrs
  metrics_allowed_cidrs = var.metrics_allowed_cidrs
  nat_gateway_per_az    = var.nat_gateway_per_az
  release_bucket        = var.release_bucket
  release_version       = var.release_version
}

module "nvirginia" {
  source                = "../../modules/region"
  providers             = { aws = aws.nvirginia }
  name                  = "nvirginia"
  azs                   = local.azs["nvirginia"]
  topology              = module.topology.regions
  seeds                 = module.topology.all_seeds
  topology_properties   = module.topology.properties
  sizes                 = var.sizes
  rest_allowed_cidrs    = var.rest_allowed_cidrs
  metrics_allowed_cidrs = var.metrics_allowed_cidrs
  nat_gateway_per_az    = var.nat_gateway_per_az
  release_bucket        = var.release_bucket
  release_version       = var.release_version
}

module "peering_sydney_nvirginia" {
  source = "../../modules/peering"
  providers = {
    aws.requester = aws.sydney
    aws.accepter  = aws.nvirginia
  }
  requester = module.sydney.peering
  accepter  = module.nvirginia.peering
}

locals {
  # Every region of var.regions must be deployed by a module block above, and the other way round.
  deployed = {
    sydney    = module.sydney
    nvirginia = module.nvirginia
  }
}
